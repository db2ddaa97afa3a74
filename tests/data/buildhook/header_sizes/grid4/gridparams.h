/* generated for a grid of 4 points */
#define NX 4
