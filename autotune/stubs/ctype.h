int isdigit(int c); int isalpha(int c); int isspace(int c); int isalnum(int c);
int toupper(int c); int tolower(int c);
