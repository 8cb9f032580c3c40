/* placeholder */
#include <stdio.h>
int main(void) { puts("1..0"); return 0; }
