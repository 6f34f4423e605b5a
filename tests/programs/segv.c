/* Crashes: a write through a null pointer (SIGSEGV). */
#include <stdio.h>

int main(void) {
    volatile int *p = NULL;
    *p = 1;
    return 0;
}
