/* Writes GB gigabytes (argv[1], default 2) of 'x' to stdout. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    static char buf[1 << 16];
    memset(buf, 'x', sizeof buf);
    long long total = (long long)(argc > 1 ? atof(argv[1]) : 2.0) * (1LL << 30);
    for (long long done = 0; done < total; done += sizeof buf) {
        if (write(1, buf, sizeof buf) < 0) {
            return 1;
        }
    }
    return 0;
}
