package bench.bare;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;

/** The start-up script's probe: the bare application has no health checks, so it is ready once it answers. */
@Path("/ready")
public class ReadyResource {

    @GET
    public String ready() {
        return "ready";
    }
}
