package io.infx.client.chat.internal;

import java.util.List;
import java.util.Map;

/** jinja2's built-in tests ({@code is defined}, {@code is string}, {@code is mapping}, …). */
final class Tests {

  private Tests() {}

  static boolean exists(String name) {
    return switch (name) {
      case "defined", "undefined", "none", "string", "mapping", "iterable", "sequence", "number",
          "integer", "float", "boolean", "true", "false", "callable", "odd", "even", "divisibleby",
          "eq", "equalto", "==", "ne", "!=", "lt", "lessthan", "<", "le", "<=", "gt", "greaterthan",
          ">", "ge", ">=", "in", "sameas", "lower", "upper", "escaped", "filter", "test" -> true;
      default -> false;
    };
  }

  static boolean apply(String name, Object v, List<Object> args) {
    switch (name) {
      case "defined":
        return !(v instanceof Undefined);
      case "undefined":
        return v instanceof Undefined;
      case "none":
        return v == null;
      case "string":
        return v instanceof String;
      case "mapping":
        return v instanceof Map;
      case "iterable":
        return v instanceof String || v instanceof List || v instanceof Map || v instanceof Undefined;
      case "sequence":
        return v instanceof String || v instanceof List || v instanceof Map || v instanceof Undefined;
      case "number":
        return Py.isNumber(v);
      case "integer":
        return v instanceof Long;
      case "float":
        return v instanceof Double;
      case "boolean":
        return v instanceof Boolean;
      case "true":
        return Boolean.TRUE.equals(v);
      case "false":
        return Boolean.FALSE.equals(v);
      case "callable":
        return v instanceof PyCallable;
      case "odd":
        return Math.floorMod(Py.toLong(v), 2) == 1;
      case "even":
        return Math.floorMod(Py.toLong(v), 2) == 0;
      case "divisibleby":
        return Math.floorMod(Py.toLong(v), Py.toLong(args.get(0))) == 0;
      case "eq", "equalto", "==":
        return Py.eq(v, args.get(0));
      case "ne", "!=":
        return !Py.eq(v, args.get(0));
      case "lt", "lessthan", "<":
        return Py.compare(v, args.get(0), "<") < 0;
      case "le", "<=":
        return Py.compare(v, args.get(0), "<=") <= 0;
      case "gt", "greaterthan", ">":
        return Py.compare(v, args.get(0), ">") > 0;
      case "ge", ">=":
        return Py.compare(v, args.get(0), ">=") >= 0;
      case "in":
        return Py.contains(args.get(0), v);
      case "sameas":
        return v == args.get(0) || (v != null && Py.isNumber(v) && v.equals(args.get(0)))
            || (v instanceof Boolean && v.equals(args.get(0)));
      case "lower":
        return v instanceof String s && s.equals(s.toLowerCase(java.util.Locale.ROOT));
      case "upper":
        return v instanceof String s && s.equals(s.toUpperCase(java.util.Locale.ROOT));
      case "escaped":
        return false;
      case "filter":
        return v instanceof String s && Filters.exists(s);
      case "test":
        return v instanceof String s && exists(s);
      default:
        throw new TemplateError("TemplateRuntimeError: No test named '" + name + "'.");
    }
  }
}
