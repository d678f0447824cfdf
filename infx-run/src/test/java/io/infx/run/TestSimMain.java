package io.infx.run;

import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;

/** A server process for recipe tests: the simulator on {@code $PORT} until killed. */
public final class TestSimMain {

  private TestSimMain() {}

  public static void main(String[] args) throws InterruptedException {
    int port = Integer.parseInt(System.getenv("PORT"));
    SimServer sim = SimServer.start(SimConfig.builder().port(port).build());
    System.out.println("test server at " + sim.baseUri() + " pid " + ProcessHandle.current().pid());
    Thread.sleep(Long.MAX_VALUE);
  }
}
