package io.infx.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.infx.client.sim.SimConfig;
import io.infx.client.sim.SimServer;
import io.infx.core.provenance.ServerProvenance;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What {@link ServerProbe} records for each engine's way of telling what it is. */
class ServerProbeTest {

  /** A fake server answering {@code path -> (status, body)}, with an optional Server header. */
  private static HttpServer fake(Map<String, String> ok, String serverHeader) throws Exception {
    HttpServer s = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    s.createContext("/", x -> {
      String body = ok.get(x.getRequestURI().getPath());
      byte[] b = (body == null ? "{\"error\":\"not found\"}" : body).getBytes(StandardCharsets.UTF_8);
      if (serverHeader != null) {
        x.getResponseHeaders().add("Server", serverHeader);
      }
      x.getResponseHeaders().add("Content-Type", "application/json");
      x.sendResponseHeaders(body == null ? 404 : 200, b.length);
      x.getResponseBody().write(b);
      x.close();
    });
    s.start();
    return s;
  }

  private static URI base(HttpServer s) {
    return URI.create("http://127.0.0.1:" + s.getAddress().getPort());
  }

  @Test
  void theSimulatorSaysItIsTheSimulator() {
    try (SimServer sim = SimServer.start(SimConfig.builder().build())) {
      ServerProvenance p = ServerProbe.probe(sim.baseUri(), Optional.empty());
      assertThat(p.engine()).isEqualTo("infx-sim");
      assertThat(p.simulated()).isTrue();
      assertThat(p.version()).isEqualTo(SimServer.VERSION);
      assertThat(p.source()).isEqualTo("GET /version");
    }
  }

  @Test
  void vllmIsKnownByOwnedByAndItsVersionByGetVersion() throws Exception {
    HttpServer s = fake(Map.of("/version", "{\"version\":\"0.10.1.1\"}",
        "/v1/models", "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"owned_by\":\"vllm\"}]}"), null);
    try {
      ServerProvenance p = ServerProbe.probe(base(s), Optional.empty());
      assertThat(p).isEqualTo(new ServerProvenance("vllm", "0.10.1.1", false, "/v1/models owned_by"));
    } finally {
      s.stop(0);
    }
  }

  @Test
  void llamaCppIsKnownByOwnedByAndItsBuildByProps() throws Exception {
    // llama-server: 404 on /version, owned_by "llamacpp", build_info in /props, Server: llama.cpp
    HttpServer s = fake(Map.of(
        "/v1/models", "{\"object\":\"list\",\"data\":[{\"id\":\"tiny\",\"owned_by\":\"llamacpp\"}]}",
        "/props", "{\"total_slots\":2,\"build_info\":\"b1-de3ff81\"}"), "llama.cpp");
    try {
      ServerProvenance p = ServerProbe.probe(base(s), Optional.empty());
      assertThat(p.engine()).isEqualTo("llama.cpp");
      assertThat(p.version()).isEqualTo("b1-de3ff81");
      assertThat(p.simulated()).isFalse();
    } finally {
      s.stop(0);
    }
  }

  @Test
  void aServerHeaderAloneNamesTheEngine() throws Exception {
    HttpServer s = fake(Map.of(), "llama.cpp");
    try {
      ServerProvenance p = ServerProbe.probe(base(s), Optional.empty());
      assertThat(p.engine()).isEqualTo("llama.cpp");
      assertThat(p.source()).isEqualTo("Server header");
    } finally {
      s.stop(0);
    }
  }

  @Test
  void aServerThatSaysNothingIsUnknownAndNotSimulated() throws Exception {
    HttpServer s = fake(Map.of(), null);
    try {
      ServerProvenance p = ServerProbe.probe(base(s), Optional.empty());
      assertThat(p.engine()).isEqualTo(ServerProvenance.UNKNOWN);
      assertThat(p.simulated()).isFalse();
      assertThat(p.source()).isEqualTo("none");
    } finally {
      s.stop(0);
    }
  }
}
