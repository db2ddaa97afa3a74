/* generated for a grid of 12 points */
#define NX 12
