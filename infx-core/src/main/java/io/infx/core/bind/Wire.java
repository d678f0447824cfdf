package io.infx.core.bind;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The name of an attribute (or enum constant) in YAML/JSON, when it is not the kebab-case form of
 * the Java name ({@code modelPrefix} → {@code model-prefix} needs no annotation;
 * {@code DRAFT_MODEL} → {@code draft_model} does).
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.METHOD, ElementType.FIELD})
public @interface Wire {
  String value();
}
