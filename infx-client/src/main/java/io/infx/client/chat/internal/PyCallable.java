package io.infx.client.chat.internal;

import java.util.List;
import java.util.Map;

/** A callable template value: a global function, a bound string/dict method or a macro. */
@FunctionalInterface
interface PyCallable {
  Object call(List<Object> args, Map<String, Object> kwargs);
}
