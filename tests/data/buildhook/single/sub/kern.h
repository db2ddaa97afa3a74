/* Found by the quoted-include search of kern.c's own directory. */
#define SCALE 0.5
