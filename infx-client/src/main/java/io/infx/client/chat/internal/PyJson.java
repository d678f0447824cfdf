package io.infx.client.chat.internal;

/** Python's {@code json.dumps(value, ensure_ascii=False)} for plain Java values (maps, lists, …). */
public final class PyJson {

  private PyJson() {}

  /**
   * {@code json.dumps(value, ensure_ascii=False)}: separators {@code ", "} and {@code ": "}.
   *
   * @throws TemplateError when a value is not JSON-serialisable
   */
  public static String dumps(Object value) {
    return new PyJsonWriter(null, null, null, false).dumps(JinjaTemplate.normalize(value));
  }

  /** Python's {@code str(value)} ({@code None}, {@code True}, {@code ['a']}, …). */
  public static String str(Object value) {
    return Py.str(JinjaTemplate.normalize(value));
  }
}
