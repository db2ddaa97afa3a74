/* A signal-processing kernel that bundles each frame's samples with their count in a
 * span it declares per iteration, by an initializer list or member by member, and walks
 * the span's pointer: each iteration reaches its own frame, so every loop varies. */
#include <stdio.h>

#define FRAMES 512
#define WIDTH 8

struct span {
    double *data;
    int len;
};

struct window {
    const double *from;
    double *to;
    double gain;
};

static double samples[FRAMES * WIDTH];
static double filtered[FRAMES * WIDTH];
static double energy[FRAMES];

/* the span arrives by value: the callee's copy points where the caller's did */
static void scale(struct span s, double g)
{
    for (int k = 0; k < WIDTH; k++)
        s.data[k] *= g;
}

/* the copy moved to the frame's last sample: the caller's span stays at its first */
static void mark_last(struct span s)
{
    s.data += WIDTH - 1;
    s.data[0] += 1.0;
}

int main(void)
{
    int f, k;
    for (k = 0; k < FRAMES * WIDTH; k++)
        samples[k] = (k % 11) * 0.25 - 1.0;
#pragma omp parallel for private(k)
    for (f = 0; f < FRAMES; f++) {
        struct span s = {&samples[f * WIDTH], WIDTH};
        for (k = 0; k < WIDTH; k++)
            s.data[k] *= 0.5;
    }
#pragma omp parallel for private(k)
    for (f = 0; f < FRAMES; f++) {
        struct window w;
        w.from = samples + f * WIDTH;
        w.to = &filtered[f * WIDTH];
        w.gain = 1.0 + f % 3;
        for (k = 1; k < WIDTH; k++)
            w.to[k] = w.gain * (w.from[k] - 0.9 * w.from[k - 1]);
        w.to[0] = w.gain * w.from[0];
    }
#pragma omp parallel for private(k)
    for (f = 0; f < FRAMES; f++) {
        struct span out = {.len = 1, .data = &energy[f]};
        double e = 0.0;
        for (k = 0; k < WIDTH; k++)
            e += filtered[f * WIDTH + k] * filtered[f * WIDTH + k];
        out.data[0] = e;
    }
#pragma omp parallel for
    for (f = 0; f < FRAMES; f++) {
        struct span s = {&samples[f * WIDTH], WIDTH};
        scale(s, 0.75);
        mark_last(s);
        s.data[0] -= 0.5;
    }
    double sum = 0.0;
    for (f = 0; f < FRAMES; f++)
        sum += energy[f] * (f % 7 + 1) + samples[f * WIDTH];
    printf("energy %.10e\n", sum);
    return 0;
}
