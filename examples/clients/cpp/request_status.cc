// A Latency Server client written against the thesis's 1997 IDL with another ORB (omniORB, C++):
// the server is JacORB on Java 17, and nothing on either side knows the other's ORB.
//
//   omniidl -bcxx ../../../idl/src/main/idl/Latserv.idl
//   g++ -o request_status request_status.cc LatservSK.cc -lomniORB4 -lomnithread
//   ./request_status "$(cat latency-server.ior)" 1
//
// Prints the connection's estimate as the thesis's RequestStatus gives it, one line, and exits 0;
// exits 1 with the reason when the server cannot be reached or does not serve the connection.
#include <cstdlib>
#include <iostream>
#include "Latserv.hh"

int main(int argc, char** argv) {
    if (argc != 3) {
        std::cerr << "usage: request_status IOR INDEX_REF" << std::endl;
        return 2;
    }
    try {
        CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
        CORBA::Object_var object = orb->string_to_object(argv[1]);
        Latserv_var server = Latserv::_narrow(object);
        if (CORBA::is_nil(server)) {
            std::cerr << "request_status: the reference is not a Latserv" << std::endl;
            return 1;
        }
        const CORBA::Short indexRef = static_cast<CORBA::Short>(std::atoi(argv[2]));
        Latserv::IdlStatusToClient_var status = server->RequestStatus(indexRef);
        if (status->server_acknowledges_client != 1) {
            std::cerr << "request_status: connection " << indexRef << " is not served" << std::endl;
            orb->destroy();
            return 1;
        }
        std::cout << "index_ref=" << status->index_ref
                  << " quality=" << status->quality
                  << " latency_estimate=" << status->latency_estimate
                  << " lower_bound_estimate=" << status->lower_bound_estimate
                  << " upper_bound_estimate=" << status->upper_bound_estimate
                  << " update_required_flag=" << status->update_required_flag << std::endl;
        orb->destroy();
        return 0;
    } catch (const CORBA::SystemException& e) {
        std::cerr << "request_status: " << e._name() << " (minor " << e.minor() << ")" << std::endl;
        return 1;
    }
}
