#ifndef SOLVER_H
#define SOLVER_H
#define NX 2000
void relax(double *restrict u, const double *restrict f, int sweeps);
double checksum(const double *u, int n);
#endif
