package io.infx.results.power;

import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reading of GPU telemetry CSV files as written by {@code nvidia-smi --format=csv} and
 * {@code amd-smi}: column detection, timestamp and power parsing (reference
 * {@code utils/aggregate_power.py}).
 */
final class TelemetryCsv {

  private static final Pattern POWER_COL = Pattern.compile("power", Pattern.CASE_INSENSITIVE);
  private static final Pattern POWER_EXCLUDE =
      Pattern.compile("limit|cap|max|min", Pattern.CASE_INSENSITIVE);
  private static final Pattern TIME_COL = Pattern.compile("time", Pattern.CASE_INSENSITIVE);
  private static final Pattern GPU_COL = Pattern.compile(
      "^(index|gpu|gpu_id|gpu_index|card|device)$", Pattern.CASE_INSENSITIVE);
  private static final Pattern NUMBER = Pattern.compile("-?\\d+(?:\\.\\d+)?");

  private TelemetryCsv() {}

  /** Columns found in a header: timestamp, power and GPU identity (each -1 when absent). */
  record Columns(int timestamp, int power, int gpu) {}

  static Columns detect(List<String> header) {
    int ts = -1;
    int pw = -1;
    int gpu = -1;
    for (int i = 0; i < header.size(); i++) {
      String c = header.get(i);
      if (ts < 0 && TIME_COL.matcher(c).find()) {
        ts = i;
      }
      if (pw < 0 && POWER_COL.matcher(c).find() && !POWER_EXCLUDE.matcher(c).find()) {
        pw = i;
      }
      if (gpu < 0 && GPU_COL.matcher(c.strip()).matches()) {
        gpu = i;
      }
    }
    return new Columns(ts, pw, gpu);
  }

  /**
   * Splits one CSV record (comma separated, double quotes, whitespace after a delimiter skipped —
   * Python's {@code csv} with {@code skipinitialspace=True}). Records do not span lines here.
   */
  static List<String> split(String line) {
    List<String> fields = new ArrayList<>();
    StringBuilder f = new StringBuilder();
    boolean quoted = false;
    boolean fieldStart = true;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (quoted) {
        if (c == '"') {
          if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
            f.append('"');
            i++;
          } else {
            quoted = false;
          }
        } else {
          f.append(c);
        }
      } else if (c == ',') {
        fields.add(f.toString());
        f.setLength(0);
        fieldStart = true;
        continue;
      } else if (fieldStart && c == ' ') {
        continue;
      } else if (fieldStart && c == '"') {
        quoted = true;
      } else {
        f.append(c);
      }
      fieldStart = false;
    }
    fields.add(f.toString());
    return fields;
  }

  private static final DateTimeFormatter NVIDIA = new DateTimeFormatterBuilder()
      .appendPattern("yyyy/MM/dd HH:mm:ss")
      .optionalStart()
      .appendFraction(ChronoField.NANO_OF_SECOND, 1, 6, true)
      .optionalEnd()
      .toFormatter(Locale.ROOT);

  /**
   * A telemetry timestamp as epoch seconds: a plain number (milliseconds when above 1e12),
   * {@code YYYY/MM/DD HH:MM:SS[.ffffff]} (nvidia-smi, local time) or ISO 8601 (local time unless
   * it has an offset). Empty when unparseable.
   */
  static OptionalDouble parseTimestamp(String value, ZoneId zone) {
    String v = value.strip();
    if (v.isEmpty()) {
      return OptionalDouble.empty();
    }
    if (NUMBER.matcher(v).matches()) {
      double n = Double.parseDouble(v);
      return OptionalDouble.of(n > 1e12 ? n / 1000.0 : n);
    }
    try {
      return OptionalDouble.of(localEpoch(LocalDateTime.parse(v, NVIDIA).atZone(zone).toInstant()));
    } catch (DateTimeParseException ignored) {
      // not the nvidia-smi format
    }
    String iso = v.contains(" ") && !v.contains("T") ? v.replaceFirst(" ", "T") : v;
    try {
      return OptionalDouble.of(awareEpoch(OffsetDateTime.parse(iso).toInstant()));
    } catch (DateTimeParseException ignored) {
      // no offset
    }
    try {
      return OptionalDouble.of(localEpoch(LocalDateTime.parse(iso).atZone(zone).toInstant()));
    } catch (DateTimeParseException e) {
      return OptionalDouble.empty();
    }
  }

  // Python: naive datetimes give mktime(...) + microsecond / 1e6; aware ones give the timedelta
  // since the epoch in whole microseconds / 1e6. Same formulas, same doubles.
  private static double localEpoch(java.time.Instant i) {
    return i.getEpochSecond() + (i.getNano() / 1000) / 1e6;
  }

  private static double awareEpoch(java.time.Instant i) {
    return (i.getEpochSecond() * 1_000_000L + i.getNano() / 1000) / 1e6;
  }

  /** The first number in a power cell ({@code "412.34 W"} → 412.34); empty for N/A. */
  static OptionalDouble parsePower(String value) {
    String v = value.strip();
    String lower = v.toLowerCase(Locale.ROOT);
    if (v.isEmpty() || lower.equals("[n/a]") || lower.equals("n/a") || lower.equals("na")) {
      return OptionalDouble.empty();
    }
    Matcher m = NUMBER.matcher(v);
    return m.find() ? OptionalDouble.of(Double.parseDouble(m.group())) : OptionalDouble.empty();
  }
}
