package io.infx.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.infx.core.UsageException;
import io.infx.core.json.Json;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A result table printed as aligned text, CSV (RFC 4180 quoting) or a JSON array of objects. Cells
 * are strings, numbers or null; text output rounds numbers to 2 decimals, CSV and JSON keep them.
 */
final class Tabular {

  private final List<String> headers;
  private final List<List<Object>> rows = new ArrayList<>();

  Tabular(List<String> headers) {
    this.headers = List.copyOf(headers);
  }

  void add(List<Object> row) {
    rows.add(row);
  }

  static void checkFormat(String format) {
    if (!List.of("table", "csv", "json").contains(format)) {
      throw new UsageException("--format must be table, csv or json, got '" + format + "'");
    }
  }

  void print(PrintWriter out, String format) {
    switch (format) {
      case "csv" -> {
        out.println(String.join(",", headers.stream().map(Tabular::csv).toList()));
        for (List<Object> r : rows) {
          out.println(String.join(",", r.stream().map(v -> csv(v == null ? "" : raw(v))).toList()));
        }
      }
      case "json" -> {
        ArrayNode a = Json.mapper().createArrayNode();
        for (List<Object> r : rows) {
          ObjectNode o = a.addObject();
          for (int i = 0; i < headers.size(); i++) {
            Object v = r.get(i);
            if (v == null) {
              o.putNull(headers.get(i));
            } else if (v instanceof Integer n) {
              o.put(headers.get(i), n);
            } else if (v instanceof Long n) {
              o.put(headers.get(i), n);
            } else if (v instanceof Double d) {
              o.put(headers.get(i), d);
            } else if (v instanceof Boolean b) {
              o.put(headers.get(i), b);
            } else {
              o.put(headers.get(i), v.toString());
            }
          }
        }
        try {
          out.println(Json.pretty().writeValueAsString(a));
        } catch (JsonProcessingException e) {
          throw new IllegalStateException(e);
        }
      }
      default -> {
        List<List<String>> cells = new ArrayList<>();
        cells.add(headers);
        for (List<Object> r : rows) {
          cells.add(r.stream().map(Tabular::text).toList());
        }
        int[] width = new int[headers.size()];
        for (List<String> r : cells) {
          for (int i = 0; i < r.size(); i++) {
            width[i] = Math.max(width[i], r.get(i).length());
          }
        }
        for (List<String> r : cells) {
          StringBuilder b = new StringBuilder();
          for (int i = 0; i < r.size(); i++) {
            if (i > 0) {
              b.append("  ");
            }
            b.append(String.format(Locale.ROOT, "%-" + width[i] + "s", r.get(i)));
          }
          out.println(b.toString().stripTrailing());
        }
      }
    }
  }

  private static String raw(Object v) {
    if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
      return String.valueOf(d.longValue());
    }
    return v.toString();
  }

  private static String text(Object v) {
    if (v == null) {
      return "-";
    }
    if (v instanceof Double d) {
      return String.format(Locale.ROOT, "%.2f", d);
    }
    return v.toString();
  }

  private static String csv(String s) {
    if (s.contains(",") || s.contains("\"") || s.contains("\n")) {
      return "\"" + s.replace("\"", "\"\"") + "\"";
    }
    return s;
  }
}
