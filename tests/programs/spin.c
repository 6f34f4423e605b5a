/* Never ends, using CPU all the time. */
int main(void) {
    volatile unsigned long n = 0;
    for (;;) {
        n++;
    }
}
