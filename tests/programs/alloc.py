# Reads its input, then allocates and touches MB megabytes (argv[1]): a program of known size.
import sys

sys.stdin.buffer.read()
mb = int(sys.argv[1]) if len(sys.argv) > 1 else 20
block = bytearray(mb << 20)
for i in range(0, len(block), 4096):
    block[i] = 1
print(block[-1])
