package org.latencyserver.idl;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.latencyserver.idl.LatservPackage.IdlBaselineMeasurementsHelper;
import org.latencyserver.idl.LatservPackage.IdlMibUpdatesHelper;
import org.latencyserver.idl.LatservPackage.IdlStatusToClientHelper;
import org.latencyserver.idl.LatservPackage.TableRowHelper;
import org.latencyserver.idl.latency.EchoPeerHelper;
import org.latencyserver.idl.latency.LatencyServiceHelper;
import org.omg.CORBA.TCKind;
import org.omg.CORBA.TypeCode;
import org.omg.CORBA.TypeCodePackage.BadKind;
import org.omg.CORBA.TypeCodePackage.Bounds;

/**
 * The generated stubs honour the thesis contract: repository ids at global scope, and the
 * structs' fields in the thesis's order with its types (CDR marshals structs by position, so
 * order and types are what a thesis client depends on).
 */
class IdlContractTest {

    @Test
    void thesisInterfacesKeepTheirGlobalRepositoryIds() {
        assertEquals("IDL:Latserv:1.0", LatservHelper.id());
        assertEquals("IDL:fm1:1.0", fm1Helper.id());
        assertEquals("IDL:Latserv/TableRow:1.0", TableRowHelper.id());
    }

    @Test
    void extendedInterfacesLiveInTheirOwnModule() {
        assertEquals("IDL:latency/LatencyService:1.0", LatencyServiceHelper.id());
        assertEquals("IDL:latency/EchoPeer:1.0", EchoPeerHelper.id());
    }

    @Test
    void tableRowHasTheThesisFieldsInOrderWithTheirTypes() throws Exception {
        final String s = "short ";
        final String f = "float ";
        final List<String> expected = List.of(
            s + "index_ref", s + "client_workstation_type", s + "peer_workstation_type", s + "quality",
            s + "message_size", s + "client_node", s + "peer_node", s + "server_acknowledges_client",
            f + "latency_estimate", f + "upper_bound_estimate", f + "lower_bound_estimate",
            s + "update_required_flag", f + "latency_avg", f + "latency_bound", s + "latency_data_provided",
            s + "latest_client_mib_cpu", s + "latest_peer_mib_cpu", s + "latest_mib_port",
            s + "previous_client_mib_cpu", s + "previous_peer_mib_cpu", s + "previous_mib_port",
            s + "cpu_state", s + "port_state");
        assertEquals(expected, members(TableRowHelper.type()));
    }

    @Test
    void messageStructsHaveTheThesisFieldsInOrderWithTheirTypes() throws Exception {
        assertEquals(List.of("short index_ref", "float latency_avg", "float latency_bound",
                "float upper_bound_estimate", "float lower_bound_estimate", "short latency_data_provided"),
            members(IdlBaselineMeasurementsHelper.type()));
        assertEquals(List.of("short index_ref", "short quality", "short server_acknowledges_client",
                "float latency_estimate", "float upper_bound_estimate", "float lower_bound_estimate",
                "short update_required_flag"),
            members(IdlStatusToClientHelper.type()));
        assertEquals(List.of("short index_ref", "short latest_client_mib_cpu", "short latest_peer_mib_cpu",
                "short latest_mib_port"),
            members(IdlMibUpdatesHelper.type()));
    }

    @Test
    void fixedArraysHaveTheThesisDimensions() throws Exception {
        // fixedArray_N is long[N / 32][8]: 8 IDL longs of 4 bytes per row.
        assertArrayEquals(new int[] {2, 8}, dimensions(fixedArray_64Helper.type()));
        assertArrayEquals(new int[] {32, 8}, dimensions(fixedArray_1kHelper.type()));
        assertArrayEquals(new int[] {256, 8}, dimensions(fixedArray_8kHelper.type()));
    }

    private static int[] dimensions(final TypeCode alias) throws BadKind {
        TypeCode type = alias.kind() == TCKind.tk_alias ? alias.content_type() : alias;
        final List<Integer> lengths = new ArrayList<>();
        while (type.kind() == TCKind.tk_array) {
            lengths.add(type.length());
            type = type.content_type();
        }
        assertEquals(TCKind.tk_long, type.kind(), "element type");
        return lengths.stream().mapToInt(Integer::intValue).toArray();
    }

    private static List<String> members(final TypeCode struct) throws BadKind, Bounds {
        final List<String> out = new ArrayList<>();
        for (int i = 0; i < struct.member_count(); i++) {
            final TCKind kind = struct.member_type(i).kind();
            final String type = kind == TCKind.tk_short ? "short" : kind == TCKind.tk_float ? "float" : kind.toString();
            out.add(type + " " + struct.member_name(i));
        }
        assertTrue(out.size() > 0);
        return out;
    }
}
