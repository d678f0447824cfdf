package io.infx.matrix.changelog;

import java.util.List;
import java.util.Objects;

/**
 * The generation inputs of one repository revision: its master-config files (in catalogue order,
 * the reference reads AMD then NVIDIA) and its runner file.
 *
 * @param masters master-config files, merged in this order
 * @param runners the runner file ({@code configs/runners.yaml})
 */
public record Revision(List<ConfigText> masters, ConfigText runners) {
  public Revision {
    masters = List.copyOf(masters);
    Objects.requireNonNull(runners, "runners");
  }
}
