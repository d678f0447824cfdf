package io.infx.matrix.config;

/** Rule messages shared by several model types (wording of the reference's validator). */
final class Messages {
  static final String IMAGE_VERSION = "component version must be a release, package version, or "
      + "source commit, not an image reference";
  static final String POSITIVE = "Input should be greater than 0";
  static final String NON_EMPTY = "String should have at least 1 character";

  private Messages() {}
}
