/* Reads its input, then reserves MB megabytes (argv[1]) in one malloc and touches one byte of
 * it: a program whose address space is far larger than its resident memory, as a JVM's or Go
 * runtime's is. Prints that byte. */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    char buf[65536];
    while (fread(buf, 1, sizeof buf, stdin) > 0) {
    }
    long mb = argc > 1 ? atol(argv[1]) : 2048;
    size_t bytes = (size_t)mb << 20;
    volatile char *p = malloc(bytes);
    if (!p) {
        return 3;
    }
    p[0] = 1;
    printf("%d\n", p[0]);
    return 0;
}
