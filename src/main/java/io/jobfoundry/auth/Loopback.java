package io.jobfoundry.auth;

import io.vertx.core.net.SocketAddress;
import io.vertx.ext.web.RoutingContext;
import java.net.InetAddress;
import java.net.UnknownHostException;

/** Whether a request came from this machine's loopback: the only clients protected mode serves. */
public final class Loopback {

    private Loopback() {
    }

    public static boolean is(RoutingContext ctx) {
        SocketAddress remote = ctx.request().remoteAddress();
        if (remote == null || !remote.isInetSocket() || remote.hostAddress() == null) {
            return false;
        }
        try {
            // A numeric address: parsed, never looked up.
            return InetAddress.getByName(remote.hostAddress()).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
