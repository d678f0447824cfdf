package io.infx.core.python;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Expected texts were produced by CPython 3.11.7 ({@code json.loads} / {@code json.dumps}). */
class PythonJsonDecoderTest {

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
      "``|Expecting value: line 1 column 1 (char 0)",
      "{|Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
      "{\"a\" 1}|Expecting ':' delimiter: line 1 column 6 (char 5)",
      "{\"a\":1,}|Expecting property name enclosed in double quotes: line 1 column 8 (char 7)",
      "[1,2|Expecting ',' delimiter: line 1 column 5 (char 4)",
      "[1 2]|Expecting ',' delimiter: line 1 column 4 (char 3)",
      "\"abc|Unterminated string starting at: line 1 column 1 (char 0)",
      "{\"a\":\"\\x\"}|Invalid \\escape: line 1 column 7 (char 6)",
      "\"\\u12\"|Invalid \\uXXXX escape: line 1 column 3 (char 2)",
      "nul|Expecting value: line 1 column 1 (char 0)",
      "-|Expecting value: line 1 column 1 (char 0)",
      "01|Extra data: line 1 column 2 (char 1)",
      "{\"a\":1} x|Extra data: line 1 column 9 (char 8)",
      "1.5e|Extra data: line 1 column 4 (char 3)",
      "\"a\tb\"|Invalid control character at: line 1 column 3 (char 2)",
  })
  void errorsCarryCpythonMessageAndPosition(String doc, String message) {
    PythonJsonDecoder.DecodeError e = catchThrowableOfType(PythonJsonDecoder.DecodeError.class,
        () -> PythonJsonDecoder.loads(doc));
    assertThat(e).as(doc).isNotNull();
    assertThat(e.getMessage()).isEqualTo(message);
  }

  @Test
  void positionsCountLinesAndColumns() {
    PythonJsonDecoder.DecodeError e = catchThrowableOfType(PythonJsonDecoder.DecodeError.class,
        () -> PythonJsonDecoder.loads("{\n  \"a\": [1,\n  2,,]}"));
    assertThat(e.getMessage()).isEqualTo("Expecting value: line 3 column 5 (char 17)");
    assertThat(e.line()).isEqualTo(3);
    assertThat(e.column()).isEqualTo(5);
    assertThat(e.problem()).isEqualTo("Expecting value");
  }

  @Test
  void byteOrderMarkIsRefusedLikeCpython() {
    assertThat(catchThrowableOfType(PythonJsonDecoder.DecodeError.class,
        () -> PythonJsonDecoder.loads("\ufeff{}")).getMessage())
        .isEqualTo("Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)");
  }

  @Test
  void acceptsWhatCpythonAccepts() throws Exception {
    assertThat(PythonJson.dumps(PythonJsonDecoder.loads(
        "[NaN, -Infinity, 1e400, 1E-2, 12345678901234567890]")))
        .isEqualTo("[NaN, -Infinity, Infinity, 0.01, 12345678901234567890]");
    assertThat(PythonJson.dumps(PythonJsonDecoder.loads("{\"a\":1,\"a\":2,\"b\":3}")))
        .isEqualTo("{\"a\": 2, \"b\": 3}");
    assertThat(PythonJson.dumps(PythonJsonDecoder.loads("-0"))).isEqualTo("0");
    assertThat(PythonJsonDecoder.loads("\"\\ud83d\\ude00\"").textValue()).isEqualTo("\uD83D\uDE00");
  }

  @Test
  void fileIsReadInTextModeAsUtf8(@TempDir Path dir) throws Exception {
    Path crlf = dir.resolve("crlf.json");
    Files.write(crlf, "{\r\n \"a\": x}".getBytes(StandardCharsets.UTF_8));
    // Text mode turns \r\n into \n before decoding, so the error is at char 8, not 9.
    assertThat(catchThrowableOfType(PythonJsonDecoder.DecodeError.class,
        () -> PythonJsonDecoder.load(crlf)).getMessage())
        .isEqualTo("Expecting value: line 2 column 7 (char 8)");
    Path latin1 = dir.resolve("latin1.json");
    Files.write(latin1, new byte[] {'"', (byte) 0xe9, '"'});
    assertThat(catchThrowableOfType(PythonJsonDecoder.EncodingError.class,
        () -> PythonJsonDecoder.load(latin1)).getMessage())
        .isEqualTo("'utf-8' codec can't decode byte 0xe9 in position 1: invalid continuation byte");
  }
}
