/* Reads its input, then allocates and touches MB megabytes (argv[1]) and holds them briefly:
 * a program of known peak memory. Prints nothing (an empty answer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    char buf[65536];
    while (fread(buf, 1, sizeof buf, stdin) > 0) {
    }
    long mb = argc > 1 ? atol(argv[1]) : 20;
    size_t bytes = (size_t)mb << 20;
    char *p = malloc(bytes);
    if (!p) {
        return 3;
    }
    memset(p, 1, bytes);
    usleep(50000);
    printf("%d\n", p[bytes - 1]);
    return 0;
}
