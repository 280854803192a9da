package io.jobfoundry.bench.compare;

import io.jobfoundry.bench.http.Lines;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The part of beanstalkd's text protocol (doc/protocol.txt in beanstalkd's sources) that the
 * workload needs: {@code use}, {@code watch}/{@code ignore}, {@code put}, {@code
 * reserve-with-timeout} and {@code delete}, over one blocking socket, several of one kind
 * pipelined where the bulk workload asks for more than one. Replies other than the
 * expected ones ({@code OUT_OF_MEMORY}, {@code DRAINING}, {@code EXPECTED_CRLF}, ...) throw.
 */
final class BeanstalkConnection implements AutoCloseable {

    /** A reserved job: its id and body. */
    record Reserved(long id, byte[] body) {
    }

    private static final int PRIORITY = 1024; // beanstalkd's conventional default
    private static final int TIME_TO_RUN_SECONDS = 60;

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    BeanstalkConnection(InetSocketAddress address) throws IOException {
        socket = new Socket();
        socket.setTcpNoDelay(true);
        socket.setSoTimeout(60_000);
        socket.connect(address, 5_000);
        in = new BufferedInputStream(socket.getInputStream(), 8 * 1024);
        out = new BufferedOutputStream(socket.getOutputStream(), 8 * 1024);
    }

    /** Producers put into {@code tube}. */
    void use(String tube) throws IOException {
        expect(command("use " + tube), "USING");
    }

    /** Workers reserve from {@code tube} only. */
    void watchOnly(String tube) throws IOException {
        expect(command("watch " + tube), "WATCHING");
        expect(command("ignore default"), "WATCHING");
    }

    /**
     * Puts one job per body. beanstalkd has no batch command, so several are pipelined: every
     * {@code put} is written in one flush, then the replies are read in order (beanstalkd answers
     * a connection's commands in the order it sent them). One body is today's single put.
     */
    void put(byte[][] bodies) throws IOException {
        for (byte[] body : bodies) {
            out.write(("put " + PRIORITY + " 0 " + TIME_TO_RUN_SECONDS + " " + body.length + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.write('\r');
            out.write('\n');
        }
        out.flush();
        for (int i = 0; i < bodies.length; i++) {
            expect(readLine(), "INSERTED");
        }
    }

    /**
     * Reserves up to {@code max} jobs, waiting up to {@code seconds} for the first; none when
     * none came. The first {@code reserve-with-timeout} waits, the other {@code max - 1} are
     * pipelined behind it with timeout 0, so they take what is ready at once and answer
     * {@code TIMED_OUT} otherwise: one round trip for the lot.
     */
    List<Reserved> reserve(int max, int seconds) throws IOException {
        out.write(("reserve-with-timeout " + seconds + "\r\n").getBytes(StandardCharsets.US_ASCII));
        byte[] immediate = "reserve-with-timeout 0\r\n".getBytes(StandardCharsets.US_ASCII);
        for (int i = 1; i < max; i++) {
            out.write(immediate);
        }
        out.flush();
        List<Reserved> reserved = new ArrayList<>(max);
        for (int i = 0; i < max; i++) {
            String reply = readLine();
            // TIMED_OUT: nothing (more) ready. DEADLINE_SOON: about a job this connection holds
            // close to its time-to-run (60 s, far beyond a run's hold): nothing reserved either.
            if (reply.equals("TIMED_OUT") || reply.equals("DEADLINE_SOON")) {
                continue;
            }
            String[] parts = expect(reply, "RESERVED").split(" ");
            byte[] body = in.readNBytes(Integer.parseInt(parts[1]));
            readLine(); // the CRLF after the body
            reserved.add(new Reserved(Long.parseLong(parts[0]), body));
        }
        return reserved;
    }

    /** Deletes the jobs, their {@code delete} commands pipelined in one flush. */
    void delete(List<Reserved> jobs) throws IOException {
        for (Reserved job : jobs) {
            out.write(("delete " + job.id() + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.flush();
        for (int i = 0; i < jobs.size(); i++) {
            expect(readLine(), "DELETED");
        }
    }

    private String command(String line) throws IOException {
        out.write((line + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return readLine();
    }

    /** Answers what follows {@code word} in {@code reply}, or throws when the reply is another. */
    private static String expect(String reply, String word) {
        if (reply.equals(word)) {
            return "";
        }
        if (!reply.startsWith(word + " ")) {
            throw new IllegalStateException("beanstalkd answered '" + reply + "' where " + word + " was expected");
        }
        return reply.substring(word.length() + 1);
    }

    private String readLine() throws IOException {
        return Lines.read(in, "beanstalkd");
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException e) {
            // done with it either way
        }
    }
}
