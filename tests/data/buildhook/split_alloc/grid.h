double *new_field(int n);
