package io.infx.store;

import java.util.Objects;
import java.util.Optional;

/**
 * Selects benchmark points: a model (DB key, e.g. {@code dsr1}) and optionally ISL/OSL, precision,
 * hardware, framework and concurrency. Built fluently: {@code PointQuery.model("dsr1").islOsl(1024,
 * 1024).precision("fp8")}.
 */
public final class PointQuery {

  private final String model;
  private final Integer isl;
  private final Integer osl;
  private final String precision;
  private final String hardware;
  private final String framework;
  private final Integer conc;

  private PointQuery(String model, Integer isl, Integer osl, String precision, String hardware, String framework,
      Integer conc) {
    this.model = Objects.requireNonNull(model, "model");
    this.isl = isl;
    this.osl = osl;
    this.precision = precision;
    this.hardware = hardware;
    this.framework = framework;
    this.conc = conc;
  }

  public static PointQuery model(String model) {
    return new PointQuery(model, null, null, null, null, null, null);
  }

  public PointQuery islOsl(int isl, int osl) {
    return new PointQuery(model, isl, osl, precision, hardware, framework, conc);
  }

  public PointQuery precision(String p) {
    return new PointQuery(model, isl, osl, p, hardware, framework, conc);
  }

  public PointQuery hardware(String h) {
    return new PointQuery(model, isl, osl, precision, h, framework, conc);
  }

  public PointQuery framework(String f) {
    return new PointQuery(model, isl, osl, precision, hardware, f, conc);
  }

  public PointQuery conc(int c) {
    return new PointQuery(model, isl, osl, precision, hardware, framework, c);
  }

  public String model() {
    return model;
  }

  public Optional<Integer> isl() {
    return Optional.ofNullable(isl);
  }

  public Optional<Integer> osl() {
    return Optional.ofNullable(osl);
  }

  public Optional<String> precision() {
    return Optional.ofNullable(precision);
  }

  public Optional<String> hardware() {
    return Optional.ofNullable(hardware);
  }

  public Optional<String> framework() {
    return Optional.ofNullable(framework);
  }

  public Optional<Integer> conc() {
    return Optional.ofNullable(conc);
  }
}
