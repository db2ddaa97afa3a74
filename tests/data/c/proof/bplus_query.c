/* Rodinia b+tree's query kernel: one query per iteration walks the levels of a tree kept
   as an array of nodes (an anonymous struct of a typedef, with array members), scanning
   each node's keys; the query's current node and offset are its own elements of two
   shared arrays, and its answer its own record. */
#include <stdio.h>
#include <stdlib.h>

#define ORDER 16
#define QUERIES 3000
typedef struct {
    int location;
    int indices[ORDER + 1];
    int keys[ORDER + 1];
    int is_leaf;
} knode;
typedef struct {
    int value;
} record;

static void kernel_cpu(record *records, knode *knodes, long knodes_elem, int order, long maxheight,
                       int count, long *currKnode, long *offset, int *keys, record *ans)
{
    int threadsPerBlock = order < 1024 ? order : 1024;
    int thid, bid, i;
#pragma omp parallel for private(i, thid)
    for (bid = 0; bid < count; bid++) {
        for (i = 0; i < maxheight; i++) {
            for (thid = 0; thid < threadsPerBlock; thid++) {
                if ((knodes[currKnode[bid]].keys[thid]) <= keys[bid] &&
                    (knodes[currKnode[bid]].keys[thid + 1] > keys[bid])) {
                    if (knodes[offset[bid]].indices[thid] < knodes_elem)
                        offset[bid] = knodes[offset[bid]].indices[thid];
                }
            }
            currKnode[bid] = offset[bid];
        }
        for (thid = 0; thid < threadsPerBlock; thid++)
            if (knodes[currKnode[bid]].keys[thid] == keys[bid])
                ans[bid].value = records[knodes[currKnode[bid]].indices[thid]].value;
    }
}

int main(void)
{
    long nodes = 1 + ORDER + ORDER * ORDER;
    knode *knodes = calloc(nodes, sizeof(knode));
    record *records = malloc(ORDER * ORDER * ORDER * sizeof(record));
    for (long r = 0; r < ORDER * ORDER * ORDER; r++)
        records[r].value = (int)((r * 2654435761u) % 100000);
    /* a complete tree of the keys 0 .. ORDER^3 - 1, three levels */
    for (long n = 0; n < nodes; n++) {
        int depth = n == 0 ? 0 : (n <= ORDER ? 1 : 2);
        long width = depth == 0 ? ORDER * ORDER : (depth == 1 ? ORDER : 1);
        long first = depth == 0 ? 0 : (depth == 1 ? (n - 1) * ORDER * ORDER : (n - 1 - ORDER) * ORDER);
        for (int k = 0; k <= ORDER; k++) {
            knodes[n].keys[k] = (int)(first + k * width);
            knodes[n].indices[k] = depth < 2 ? (int)(n * ORDER + 1 + k) : (int)(first + k);
        }
        knodes[n].is_leaf = depth == 2;
    }
    long *curr = calloc(QUERIES, sizeof(long)), *off = calloc(QUERIES, sizeof(long));
    int *keys = malloc(QUERIES * sizeof(int));
    record *ans = malloc(QUERIES * sizeof(record));
    for (int q = 0; q < QUERIES; q++) {
        keys[q] = (int)((q * 7919L) % (ORDER * ORDER * ORDER));
        ans[q].value = -1;
    }
    kernel_cpu(records, knodes, nodes, ORDER, 2, QUERIES, curr, off, keys, ans);
    long sum = 0;
    for (int q = 0; q < QUERIES; q++)
        sum += ans[q].value * (long)(q % 13 + 1);
    printf("queries %d checksum %ld\n", QUERIES, sum);
    free(knodes);
    free(records);
    free(curr);
    free(off);
    free(keys);
    free(ans);
    return 0;
}
