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

/**
 * The part of beanstalkd's text protocol (doc/protocol.txt in beanstalkd's sources) that the
 * workload needs: {@code use}, {@code watch}/{@code ignore}, {@code put}, {@code
 * reserve-with-timeout} and {@code delete}, over one blocking socket. Replies other than the
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

    long put(byte[] body) throws IOException {
        out.write(("put " + PRIORITY + " 0 " + TIME_TO_RUN_SECONDS + " " + body.length + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.write('\r');
        out.write('\n');
        out.flush();
        return Long.parseLong(expect(readLine(), "INSERTED"));
    }

    /** Reserves a job, waiting up to {@code seconds}; null when none came. */
    Reserved reserve(int seconds) throws IOException {
        while (true) {
            String reply = command("reserve-with-timeout " + seconds);
            if (reply.equals("TIMED_OUT")) {
                return null;
            }
            if (reply.equals("DEADLINE_SOON")) {
                continue; // about a job this connection already holds; the workload holds none here
            }
            String[] parts = expect(reply, "RESERVED").split(" ");
            byte[] body = in.readNBytes(Integer.parseInt(parts[1]));
            readLine(); // the CRLF after the body
            return new Reserved(Long.parseLong(parts[0]), body);
        }
    }

    void delete(long id) throws IOException {
        expect(command("delete " + id), "DELETED");
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
