package io.infx.client.agentx;

/** Shared test fixtures. */
public final class WekaTracesTestData {
  private WekaTracesTestData() {}

  /** The spec's tiny example (agentx.md §2.1). */
  public static final String DEMO = WekaTracesTest.DEMO;
}
