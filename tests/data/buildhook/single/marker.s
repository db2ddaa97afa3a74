# Not C: passed through untouched.
	.globl	autotune_asm_marker
	.data
autotune_asm_marker:
	.long	42
	.section	.note.GNU-stack,"",%progbits
