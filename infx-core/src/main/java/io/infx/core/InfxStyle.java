package io.infx.core;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.immutables.value.Value;

/**
 * The Immutables style every infx value type uses: abstract {@code Xxx} types written by hand,
 * generated {@code ImmutableXxx} implementations, builders that refuse to build while a mandatory
 * attribute is missing, and no {@code null} accepted anywhere (optional values are
 * {@link java.util.Optional}).
 */
@Target({ElementType.PACKAGE, ElementType.TYPE})
@Retention(RetentionPolicy.CLASS)
@Value.Style(
    get = {"is*", "get*"},
    init = "*",
    typeImmutable = "Immutable*",
    visibility = Value.Style.ImplementationVisibility.PUBLIC,
    defaults = @Value.Immutable(copy = true),
    jdkOnly = true,
    validationMethod = Value.Style.ValidationMethod.SIMPLE,
    allParameters = false)
public @interface InfxStyle {}
