// A thesis client's look inside the server, with another ORB (omniORB, C++), written against the
// thesis's 1997 IDL (idl/src/main/idl/Latserv.idl) unchanged: RequestTableStatus, the whole row of a
// connection, of which it prints the load state and the latest MIB values.
//
//   omniidl -bcxx Latserv.idl
//   g++ -o table_status table_status.cc LatservSK.cc -lomniORB4 -lomnithread
//   ./table_status "$(cat latency-server.ior)" 1
//
// Prints one line and exits 0; exits 1 with the reason when the server cannot be reached or does not
// serve the connection. Used by the system tests (MultiHopPathOnTestbedTest).
#include <cstdlib>
#include <iostream>
#include "Latserv.hh"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: table_status IOR INDEX_REF" << std::endl;
        return 2;
    }
    try {
        CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
        Latserv_var server = Latserv::_narrow(orb->string_to_object(argv[1]));
        if (CORBA::is_nil(server)) {
            std::cerr << "table_status: the reference is not a Latserv" << std::endl;
            return 1;
        }
        const CORBA::Short indexRef = static_cast<CORBA::Short>(std::atoi(argv[2]));
        Latserv::TableRow_var row = server->RequestTableStatus(indexRef);
        if (row->server_acknowledges_client != 1) {
            std::cerr << "table_status: connection " << indexRef << " is not served" << std::endl;
            orb->destroy();
            return 1;
        }
        std::cout << "index_ref=" << row->index_ref
                  << " cpu_state=" << row->cpu_state
                  << " port_state=" << row->port_state
                  << " latest_mib_port=" << row->latest_mib_port
                  << " latest_client_mib_cpu=" << row->latest_client_mib_cpu
                  << " latest_peer_mib_cpu=" << row->latest_peer_mib_cpu << std::endl;
        orb->destroy();
        return 0;
    } catch (const CORBA::SystemException& e) {
        std::cerr << "table_status: " << e._name() << " (minor " << e.minor() << ")" << std::endl;
        return 1;
    }
}
