package io.infx.matrix.changelog;

/**
 * One line of one side of a changelog diff.
 *
 * @param number 1-based line number in its file
 * @param text the line without its terminator
 */
public record DiffLine(int number, String text) {}
