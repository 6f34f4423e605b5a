// Copies its standard input to its standard output: the smallest Java solution, run as
// `java -Xss64m Copy` (a deep-recursion solution's stack) to check that a JVM's start-up,
// which reserves and commits address space in bulk, passes a memory limit it stays under.
import java.io.IOException;

public class Copy {
    public static void main(String[] args) throws IOException {
        System.in.transferTo(System.out);
        System.out.flush();
    }
}
