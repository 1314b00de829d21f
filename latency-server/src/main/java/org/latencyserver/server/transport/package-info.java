/**
 * What a caller may make the server hold at the transport: the size of one GIOP message (checked
 * from its 12-byte header, before JacORB allocates the body, on plain IIOP connections and on the
 * decrypted stream of IIOP/TLS ones), and the plain IIOP connections the server accepts, counted while open.
 */
package org.latencyserver.server.transport;
