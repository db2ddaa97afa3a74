/* Found through the quoted-include search of src/stencil.c's own directory. */
#define STENCIL_WEIGHT 0.25
