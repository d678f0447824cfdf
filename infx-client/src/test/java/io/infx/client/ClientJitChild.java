package io.infx.client;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.util.Optional;
import javax.management.ObjectName;

/** Child JVM of {@link ClientJitTest}: prints the mode in effect and whether C2 is excluded. */
public final class ClientJitChild {

  private ClientJitChild() {}

  public static void main(String[] args) throws Exception {
    ClientJit.Choice c = ClientJit.apply(ClientJit.choose(Optional.empty(), URI.create("http://127.0.0.1:9")));
    System.out.println("applied=" + c.mode().cliName() + " excluded=" + c2Excluded());
    ClientJit.warmupOver();
    System.out.println("warm=" + ClientJit.applied().orElseThrow().mode().cliName() + " excluded=" + c2Excluded());
    ClientJit.Choice later = ClientJit.apply(new ClientJit.Choice(ClientJit.Mode.TIERED, "given"));
    System.out.println("later=" + later.mode().cliName() + " excluded=" + c2Excluded());
  }

  /** Whether the compiler directives stack holds a directive excluding C2 (jcmd Compiler.directives_print). */
  private static boolean c2Excluded() throws Exception {
    Object out = ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "compilerDirectivesPrint",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    // per directive: "c2 directives:" then a line of flags; the JVM's default has Exclude:false
    for (String block : String.valueOf(out).split("c2 directives:")) {
      String flags = block.strip().lines().skip(1).findFirst().orElse("");
      if (flags.contains(" Exclude:true")) {
        return true;
      }
    }
    return false;
  }
}
