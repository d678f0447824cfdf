package io.infx.matrix.changelog;

import java.util.Objects;

/**
 * One input file's content: a master-config file or a runner file, as read from the working tree
 * or from a git revision.
 *
 * @param name how errors name the file, e.g. {@code configs/amd-master.yaml} or
 *     {@code base:configs/amd-master.yaml}
 * @param text the file's text (UTF-8 decoded)
 */
public record ConfigText(String name, String text) {
  public ConfigText {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(text, "text");
  }
}
