/**
 * Shared foundation of infx: errors ({@link io.infx.core.InfxException} and its subclasses),
 * {@link io.infx.core.Violation} and {@link io.infx.core.Location} for located validation errors,
 * the Immutables style ({@link io.infx.core.InfxStyle}), JSON/YAML mapping
 * ({@link io.infx.core.json}) and atomic file output ({@link io.infx.core.io}).
 */
package io.infx.core;
