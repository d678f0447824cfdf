package io.infx.core.bind;

import io.infx.core.Location;
import java.util.Objects;

/**
 * Where a bound value came from: its JSON pointer in the document and its location.
 *
 * @param pointer RFC 6901 pointer inside the source document
 * @param location {@code file:line:column} of the value
 */
public record Origin(String pointer, Location location) {
  public Origin {
    Objects.requireNonNull(pointer, "pointer");
    Objects.requireNonNull(location, "location");
  }

  @Override
  public String toString() {
    return location + " " + pointer;
  }
}
