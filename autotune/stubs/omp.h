#ifndef AUTOTUNE_STUB_OMP_H
#define AUTOTUNE_STUB_OMP_H
typedef struct { void *_p; } omp_lock_t;
typedef struct { void *_p; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2,
                           omp_sched_guided = 3, omp_sched_auto = 4 } omp_sched_t;
int omp_get_thread_num(void);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_num_procs(void);
void omp_set_num_threads(int n);
int omp_in_parallel(void);
void omp_set_dynamic(int flag);
void omp_set_nested(int flag);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_set_schedule(omp_sched_t kind, int chunk);
void omp_get_schedule(omp_sched_t *kind, int *chunk);
void omp_init_lock(omp_lock_t *l);
void omp_destroy_lock(omp_lock_t *l);
void omp_set_lock(omp_lock_t *l);
void omp_unset_lock(omp_lock_t *l);
int omp_test_lock(omp_lock_t *l);
#endif
