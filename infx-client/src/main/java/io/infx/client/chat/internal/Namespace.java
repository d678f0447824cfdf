package io.infx.client.chat.internal;

import java.util.LinkedHashMap;
import java.util.Map;

/** jinja2's {@code namespace(...)}: the one object a template may assign attributes to. */
final class Namespace {
  final Map<String, Object> attrs = new LinkedHashMap<>();
}
