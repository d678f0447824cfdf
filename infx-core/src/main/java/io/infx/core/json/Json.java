package io.infx.core.json;

import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;

/**
 * The JSON mappers every module uses, configured once: strict on input (unknown properties,
 * duplicate keys and trailing tokens are errors; floats never silently become ints), and
 * deterministic on output (declaration order, no escaping surprises).
 *
 * <p>Mappers are thread-safe and shared; do not reconfigure them — {@code copy()} first.
 */
public final class Json {

  private static final JsonMapper STRICT = JsonMapper.builder()
      .addModule(new Jdk8Module())
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
      .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
      .disable(SerializationFeature.FAIL_ON_EMPTY_BEANS)
      .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS) // Python's json writes NaN/Infinity
      .build();

  private static final DefaultPrettyPrinter PRETTY =
      new DefaultPrettyPrinter().withObjectIndenter(new DefaultIndenter("  ", "\n"));

  private Json() {}

  /** The shared strict mapper. */
  public static ObjectMapper mapper() {
    return STRICT;
  }

  /** Writer for human-read output: two-space indentation, one key per line. */
  public static ObjectWriter pretty() {
    return STRICT.writer(PRETTY);
  }

  /** Writer for compact one-line output. */
  public static ObjectWriter compact() {
    return STRICT.writer();
  }
}
