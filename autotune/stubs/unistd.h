#include "_autotune_types.h"
int usleep(unsigned int usec);
unsigned int sleep(unsigned int s);
long sysconf(int name);
int getopt(int argc, char *const argv[], const char *opts);
extern char *optarg;
extern int optind;
