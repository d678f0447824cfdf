/**
 * The one home of Python compatibility: everything infx writes or words so that it matches the
 * Python reference byte for byte. {@link io.infx.core.python.PythonJson} ({@code json.dumps}),
 * {@link io.infx.core.python.PythonNumbers} ({@code repr(float)}, {@code round}, {@code format},
 * {@code int()}, {@code float()}) and {@link io.infx.core.python.PythonRepr} ({@code repr()} and
 * {@code str()} of values in messages). Only public JDK and exported library APIs are used, so the
 * package works on the module path.
 */
package io.infx.core.python;
