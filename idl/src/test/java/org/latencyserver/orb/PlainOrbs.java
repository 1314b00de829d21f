package org.latencyserver.orb;

import java.util.Properties;
import org.omg.CORBA.ORB;

/**
 * JacORB as a test's own client or server ORB, set up as plainly as JacORB allows (plain IIOP, on
 * loopback, its log quiet), not through {@link OrbSupport}: a test that checks what the project's
 * ORB set-up does talks to it from an ORB that shares none of it.
 */
public final class PlainOrbs {

    private PlainOrbs() {
    }

    /** @return new properties for a plain JacORB ORB on loopback, JacORB quiet; the caller may add more */
    public static Properties properties() {
        final Properties properties = new Properties();
        properties.setProperty("org.omg.CORBA.ORBClass", "org.jacorb.orb.ORB");
        properties.setProperty("org.omg.CORBA.ORBSingletonClass", "org.jacorb.orb.ORBSingleton");
        properties.setProperty("OAIAddr", "127.0.0.1");
        properties.setProperty("jacorb.log.default.verbosity", "1");
        return properties;
    }

    /** @return a new plain ORB (see {@link #properties()}); the caller shuts it down */
    public static ORB init() {
        return ORB.init(new String[0], properties());
    }

    /** @return a new plain ORB that makes no retries: a call to a server that is gone fails at once */
    public static ORB withoutRetries() {
        final Properties properties = properties();
        properties.setProperty("jacorb.retries", "0");
        return ORB.init(new String[0], properties);
    }
}
