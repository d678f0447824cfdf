package io.infx.matrix.internal;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.JsonLocation;
import io.infx.core.Location;
import io.infx.core.json.Json;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Line/column of every value in a JSON document, keyed by RFC 6901 pointer, so that errors about a
 * row can say where in the user's file the offending key is. Jackson's tree model forgets
 * locations; this walks the token stream once more.
 */
public final class JsonLocations {

  private final String source;
  private final Map<String, int[]> byPointer;

  private JsonLocations(String source, Map<String, int[]> byPointer) {
    this.source = source;
    this.byPointer = byPointer;
  }

  /** No locations (input did not come from a file). */
  public static JsonLocations none(String source) {
    return new JsonLocations(source, Map.of());
  }

  /** Indexes {@code text}; returns {@link #none} when the text does not parse. */
  public static JsonLocations index(String source, String text) {
    Map<String, int[]> map = new HashMap<>();
    try (JsonParser p = Json.mapper().getFactory().createParser(text)) {
      JsonToken t;
      while ((t = p.nextToken()) != null) {
        if (t == JsonToken.FIELD_NAME || t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
          continue;
        }
        JsonPointer ptr = p.getParsingContext().pathAsPointer();
        JsonLocation loc = p.currentTokenLocation();
        map.putIfAbsent(ptr.toString(), new int[] {loc.getLineNr(), loc.getColumnNr()});
      }
    } catch (IOException e) {
      return none(source);
    }
    return new JsonLocations(source, map);
  }

  /**
   * Where the value at {@code pointer} is; for an absent key, the location of the nearest
   * enclosing value that exists (so "missing key" errors point at the object that lacks it).
   */
  public Optional<Location> locate(String pointer) {
    String p = pointer;
    while (true) {
      int[] lc = byPointer.get(p);
      if (lc != null && lc[0] > 0 && lc[1] > 0) {
        return Optional.of(new Location(source, lc[0], lc[1]));
      }
      if (p.isEmpty()) {
        return Optional.empty();
      }
      int slash = p.lastIndexOf('/');
      p = slash <= 0 ? "" : p.substring(0, slash);
    }
  }
}
