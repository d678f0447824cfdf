package io.infx.report;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@link BenchmarkReport#writeTo(Path)} wrote.
 *
 * @param html the self-contained report ({@code report.html})
 * @param svg one SVG file per chart ({@code charts/<name>.svg})
 * @param png one PNG file per chart ({@code charts/<name>.png}, drawn at twice the size)
 */
public record ReportFiles(Path html, List<Path> svg, List<Path> png) {
  public ReportFiles {
    svg = List.copyOf(svg);
    png = List.copyOf(png);
  }
}
