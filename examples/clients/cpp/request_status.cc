// A Latency Server client written against the thesis's 1997 IDL with another ORB (omniORB, C++):
// the server is JacORB on Java 17, and nothing on either side knows the other's ORB.
//
//   omniidl -bcxx ../../../idl/src/main/idl/Latserv.idl
//   g++ -o request_status request_status.cc LatservSK.cc -lomniORB4 -lomnithread
//   ./request_status "$(cat latency-server.ior)" 1
//   ./request_status corbaname::127.0.0.1:2809#LatencyServer 1 2000
//
// Prints the connection's estimate as the thesis's RequestStatus gives it, one line, and exits 0;
// exits 1 with the reason when the server cannot be reached or does not serve the connection.
//
// REF is an IOR, a corbaloc: or a corbaname: URL. When the call fails with TRANSIENT or
// COMM_FAILURE (a server that was killed, or a standby that does not serve), the client waits
// RETRY_MILLIS (default 2000: about one takeover of a hot-standby pair), resolves REF again and
// calls once more. With a corbaname: URL that second resolution asks the naming service, so it
// reaches the server that holds the name now: after a takeover, the new primary. An IOR names
// one process, so its retry reaches only that process again.
#include <cstdlib>
#include <iostream>
#include <omnithread.h>
#include "Latserv.hh"

// RequestStatus on the server REF names now (status unchanged when REF is not a Latserv: notLatserv set);
// system exceptions go to the caller.
static void requestStatus(CORBA::ORB_ptr orb, const char* ref, CORBA::Short indexRef, Latserv::IdlStatusToClient& status,
                          bool* notLatserv) {
    CORBA::Object_var object = orb->string_to_object(ref);
    Latserv_var server = Latserv::_narrow(object);
    if (CORBA::is_nil(server)) {
        *notLatserv = true;
        return;
    }
    status = server->RequestStatus(indexRef);
}

int main(int argc, char** argv) {
    if (argc != 3 && argc != 4) {
        std::cerr << "usage: request_status REF INDEX_REF [RETRY_MILLIS]" << std::endl;
        return 2;
    }
    try {
        CORBA::ORB_var orb = CORBA::ORB_init(argc, argv);
        const CORBA::Short indexRef = static_cast<CORBA::Short>(std::atoi(argv[2]));
        const long retryMillis = argc == 4 ? std::atol(argv[3]) : 2000;
        bool notLatserv = false;
        Latserv::IdlStatusToClient status;
        try {
            requestStatus(orb, argv[1], indexRef, status, &notLatserv);
        } catch (const CORBA::SystemException& e) {
            const bool lost = CORBA::TRANSIENT::_downcast(&e) != 0 || CORBA::COMM_FAILURE::_downcast(&e) != 0;
            if (!lost) {
                throw;
            }
            std::cerr << "request_status: " << e._name() << " (minor " << e.minor() << "); resolving " << argv[1]
                      << " again in " << retryMillis << " ms and retrying once" << std::endl;
            omni_thread::sleep(retryMillis / 1000, (retryMillis % 1000) * 1000000);
            requestStatus(orb, argv[1], indexRef, status, &notLatserv);
        }
        if (notLatserv) {
            std::cerr << "request_status: the reference is not a Latserv" << std::endl;
            return 1;
        }
        if (status.server_acknowledges_client != 1) {
            std::cerr << "request_status: connection " << indexRef << " is not served" << std::endl;
            orb->destroy();
            return 1;
        }
        std::cout << "index_ref=" << status.index_ref
                  << " quality=" << status.quality
                  << " latency_estimate=" << status.latency_estimate
                  << " lower_bound_estimate=" << status.lower_bound_estimate
                  << " upper_bound_estimate=" << status.upper_bound_estimate
                  << " update_required_flag=" << status.update_required_flag << std::endl;
        orb->destroy();
        return 0;
    } catch (const CORBA::SystemException& e) {
        std::cerr << "request_status: " << e._name() << " (minor " << e.minor() << ")" << std::endl;
        return 1;
    }
}
