/*
 * SPDX-License-Identifier: GPL-2.0-only
 *
 * ns3-adc: the ILB's compact IPv4 NAT / connection table (targets: at most 96 bytes per entry,
 * ILB-05, and 64, issue 13, the table's own overhead included; Linux IPVS spends 128).
 */

#ifndef ILB_NAT_TABLE_H
#define ILB_NAT_TABLE_H

#include "ns3/adc-flow-key.h"
#include "ns3/adc-timeout-class.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"

#include <array>
#include <cstdint>
#include <map>
#include <vector>

namespace ns3
{

/**
 * \ingroup adc
 * \brief Compact connection / NAT table for IPv4 flows.
 *
 * Storage is a slab: a std::vector of fixed-size 40-byte records addressed by 32-bit indices;
 * freed records are chained through their LRU "next" link (an intrusive free list, so it costs
 * no memory of its own) and reused first. The slab grows by a sixteenth of its size at a time.
 * A record holds what differs between connections in full: the client's address and port, the
 * four ports of both keys, the last-seen time, TCP end tracking (FIN/ACK flags and the ACK
 * numbers that acknowledge each FIN) and intrusive 32-bit LRU links in one list per protocol
 * class (TCP, UDP, other). What few connections share is kept once in the table's endpoint
 * lists and named in the record by a 16-bit id: the VIP address with the protocol, the
 * translated destination (the server's address) with the server index, and the translated
 * source address (Full-NAT's NAT source; Half-NAT and DSR keep the client's, which costs no id).
 * At most 65,535 of each (InsertError::ENDPOINTS beyond).
 *
 * Two open-addressing hash indexes (linear probing, backward-shift deletion, no tombstones)
 * map the original key and the reply key (translated reversed) to record indices; they hold
 * 32-bit indices only, at a load of at most 80 % (doubled and rehashed beyond). Hashing uses
 * AdcHash with the table's seed; nothing is ever decided by iterating an unordered container.
 * Memory per entry, everything allocated included: at most 40 * 17/16 for the slab plus
 * 2 * 4 / 0.4 for the indexes just after they doubled, so at most about 63 bytes once the
 * endpoint lists are small beside the table (GetBytesPerEntry).
 *
 * Time: last-seen is a 32-bit tick of milliseconds since the simulation start (wrapping after
 * 49.7 days; idle differences are computed modulo 2^32, so idle periods must stay below that).
 * An entry last seen at tick t with idle timeout T is expired when now - t > T (both in
 * milliseconds, T rounded up), i.e. idle expiry is exact to the millisecond. Lookups and
 * inserts purge idle entries of the LRU fronts first. Time must not go backwards.
 */
class IlbNatTable : public Object
{
  public:
    /// "no record"
    static constexpr uint32_t NONE = 0xffffffffu;

    /// Record flags.
    enum Flags : uint8_t
    {
        // illumos ilb_conn.c's TCP fields (update_conn_tcp, ilb_conn_cleanup):
        FIN_CLIENT = 0x01,       //!< conn_c2s_tcp_fin_sent
        FIN_SERVER = 0x02,       //!< conn_s2c_tcp_fin_sent
        FIN_CLIENT_ACKED = 0x04, //!< conn_c2s_tcp_fin_acked (set by the cleanup)
        FIN_SERVER_ACKED = 0x08, //!< conn_s2c_tcp_fin_acked (set by the cleanup)
        ACK_PAST_FIN_CLIENT = 0x10, //!< the server's last ACK is SEQ_GT the client's fss
        RST_SEEN = 0x20,            //!< conn_gc: a RST was seen; the cleanup removes it
        ACK_PAST_FIN_SERVER = 0x40, //!< the client's last ACK is SEQ_GT the server's fss
        IN_USE = 0x80               //!< the record is live (not on the free list)
    };

    /// Endpoint id of a translated source address equal to the client's (Half-NAT, DSR).
    static constexpr uint16_t SAME_AS_CLIENT = 0xffff;

    /// One connection (40 bytes).
    struct Record
    {
        uint32_t client{0};       //!< original source address (the client)
        uint32_t lastSeen{0};     //!< last-seen tick (ms since the simulation start)
        uint32_t prev{NONE};      //!< LRU link towards the oldest
        uint32_t next{NONE};      //!< LRU link towards the newest; free-list link when free
        uint32_t finAck[2]{0, 0}; //!< per direction (0 client, 1 server): its FIN's sequence
                                  //!< number (illumos conn_c2s/s2c_tcp_fss: seq + seg_len)
        uint16_t clientPort{0};   //!< original source port
        uint16_t vipPort{0};      //!< original destination port
        uint16_t natPort{0};      //!< translated source port
        uint16_t serverPort{0};   //!< translated destination port
        uint16_t vip{0};          //!< id: original destination address and protocol
        uint16_t server{0};       //!< id: translated destination address and server index
        uint16_t natAddress{0};   //!< id: translated source address, or SAME_AS_CLIENT
        uint8_t flags{0};         //!< Flags
    };

    /// Why Insert returned NONE.
    enum class InsertError : uint8_t
    {
        NONE,      //!< inserted
        FULL,      //!< MaxEntries reached
        COLLISION, //!< another entry holds the reply key
        ENDPOINTS  //!< a 65,536th distinct VIP, server or NAT source address
    };

    /**
     * \brief Signature of the removal callback: called just before a record is freed.
     * \param index the record
     * \param expired true for idle expiry, false for Remove / RemoveServer
     */
    typedef Callback<void, uint32_t, bool> RemoveCallback;

    /// \return the TypeId
    static TypeId GetTypeId();

    IlbNatTable();
    ~IlbNatTable() override;

    /**
     * \brief Insert a connection (both keys must be IPv4).
     * \param original client-side key
     * \param translated server-side key
     * \param server server index
     * \param now current time
     * \param[out] error why it failed (optional)
     * \return the record index; the existing record (refreshed) when \p original is present;
     * NONE when full or when another record holds translated.Reversed()
     */
    uint32_t Insert(const AdcFlowKey& original,
                    const AdcFlowKey& translated,
                    uint32_t server,
                    Time now,
                    InsertError* error = nullptr);

    /**
     * \param k client-side key, as the packet arrives
     * \param now current time
     * \param[out] idle optional: how long the entry had been idle before this lookup
     * \return the record (lastSeen refreshed), or NONE when absent or idle
     */
    uint32_t LookupOriginal(const AdcFlowKey& k, Time now, Time* idle = nullptr);
    /**
     * \param k server-side key, as the packet arrives (translated reversed)
     * \param now current time
     * \param[out] idle optional: how long the entry had been idle before this lookup
     * \return the record (lastSeen refreshed), or NONE when absent or idle
     */
    uint32_t LookupReply(const AdcFlowKey& k, Time now, Time* idle = nullptr);
    /// \param k client-side key \return record or NONE (no purge, no refresh)
    uint32_t Find(const AdcFlowKey& k) const;

    /// \param index a live record: remove it (the callback is called first)
    void Remove(uint32_t index);
    /// \param original client-side key \return true when an entry was removed
    bool Remove(const AdcFlowKey& original);
    /**
     * \brief Remove every entry of \p server, in LRU order (TCP, then UDP, then other).
     * \param server server index
     * \return number removed
     */
    uint32_t RemoveServer(uint32_t server);
    /// \param now current time: remove every idle entry
    void Purge(Time now);

    /// \param index a live record \return it
    const Record& Get(uint32_t index) const;
    /// \param index a live record \return it, for TCP tracking updates (keys must not change)
    Record& GetMutable(uint32_t index);
    /// \param index a live record \return its original key
    AdcFlowKey GetOriginal(uint32_t index) const;
    /// \param index a live record \return its translated key
    AdcFlowKey GetTranslated(uint32_t index) const;
    /// \param index a live record \return its server index (as given to Insert)
    uint32_t GetServer(uint32_t index) const;
    /// \param index a live record \return its IP protocol
    uint8_t GetProtocol(uint32_t index) const;
    /// \param index a record index \return true when live
    bool IsLive(uint32_t index) const;

    /// \return live entries
    uint32_t GetSize() const;
    /// \param server server index \return its live entries
    uint32_t CountServer(uint32_t server) const;
    /// \return allocated records (live and free)
    uint32_t GetRecordCapacity() const;
    /// \return slots of each hash index
    uint32_t GetIndexSlots() const;
    /**
     * \brief Memory per live entry, from the actual allocations: the slab's capacity times
     * sizeof(Record), the two indexes' slots times 4 bytes, the per-server counters and the
     * endpoint lists with their maps (a map node counted as its pair plus 32 bytes), divided
     * by the live entries (the free list is intrusive and costs nothing extra).
     * \return bytes per entry, rounded up (the total when the table is empty)
     */
    std::size_t GetBytesPerEntry() const;
    /// \return bytes allocated by the table's arrays
    std::size_t GetAllocatedBytes() const;

    /// \param protocol IP protocol \return its idle timeout
    Time GetIdleTimeout(uint8_t protocol) const;
    /// \param t time \return its tick (ms since the simulation start, modulo 2^32)
    static uint32_t ToTick(Time t);
    /// \param index a live record \param now time \return how long it has been idle
    Time GetIdle(uint32_t index, Time now) const;
    /// \param cb called before a record is freed (expired or removed)
    void SetRemoveCallback(RemoveCallback cb);

    /// \return entries created
    uint64_t GetCreatedCount() const;
    /// \return entries expired
    uint64_t GetExpiredCount() const;
    /// \return entries removed (Remove, RemoveServer)
    uint64_t GetRemovedCount() const;
    /// \return inserts refused: full (MaxEntries, or an endpoint list)
    uint64_t GetOverflowCount() const;
    /// \return inserts refused: reply key taken
    uint64_t GetCollisionCount() const;

  protected:
    void DoDispose() override;

  private:
    using LruClass = AdcTimeoutClass::Value; //!< LRU list classes

    /// A packed IPv4 5-tuple.
    struct Key
    {
        uint32_t src;     //!< source
        uint32_t dst;     //!< destination
        uint16_t sport;   //!< source port
        uint16_t dport;   //!< destination port
        uint8_t protocol; //!< protocol
    };

    /// LRU list ends
    struct List
    {
        uint32_t head{NONE}; //!< oldest
        uint32_t tail{NONE}; //!< newest
    };

    /// \param k key \return true when both addresses are IPv4
    static bool Pack(const AdcFlowKey& k, Key& out);

    /// A VIP endpoint: the original destination address and the protocol.
    struct Vip
    {
        uint32_t address; //!< VIP
        uint8_t protocol; //!< IP protocol
    };

    /// A server endpoint: the translated destination address and the server index.
    struct Server
    {
        uint32_t address; //!< server address
        uint32_t server;  //!< server index (Insert's)
    };

    /**
     * \brief The id of an endpoint, added when new.
     * \param ids the endpoint list's map
     * \param key the endpoint, packed
     * \param[out] id its id
     * \return false when the list is full (65,535 ids)
     */
    static bool Intern(std::map<uint64_t, uint16_t>& ids, uint64_t key, uint16_t& id);
    /// \param r record \return its original key
    Key OriginalOf(const Record& r) const;
    /// \param r record \return its reply key (translated reversed)
    Key ReplyOf(const Record& r) const;
    /// \param r record \return its translated source address
    uint32_t NatAddressOf(const Record& r) const;
    /// \param a key \param b key \return equal
    static bool Same(const Key& a, const Key& b);
    /// \param k key \return its hash
    uint64_t HashOf(const Key& k) const;
    /// \param c class \return its timeout in ms (rounded up)
    uint64_t TimeoutTicks(LruClass c) const;

    /// \param index hash index \param k key \param reply which key of records \return slot or NONE
    uint32_t FindSlot(const std::vector<uint32_t>& index, const Key& k, bool reply) const;
    /// \param index hash index \param k key \param rec record to add
    void IndexInsert(std::vector<uint32_t>& index, const Key& k, uint32_t rec);
    /// \param index hash index \param slot slot to empty (backward shift) \param reply which key
    void IndexErase(std::vector<uint32_t>& index, uint32_t slot, bool reply);
    /// Double both indexes and rehash.
    void Grow();
    /// \return a free record (from the free list or the slab)
    uint32_t AllocRecord();
    /// \param i record \param expired why: unlink, unindex, callback, free
    void Erase(uint32_t i, bool expired);
    /// \param i record to append to its LRU list
    void LinkBack(uint32_t i);
    /// \param i record to unlink from its LRU list
    void Unlink(uint32_t i);
    /// \param i record \param now time: refresh and move to the back
    void Touch(uint32_t i, Time now);
    /// \param reply which index \param k key \param now time \param idle out \return record
    uint32_t Lookup(bool reply, const AdcFlowKey& k, Time now, Time* idle);

    Time m_tcpTimeout;     //!< "TcpIdleTimeout"
    Time m_udpTimeout;     //!< "UdpIdleTimeout"
    Time m_otherTimeout;   //!< "OtherIdleTimeout"
    uint32_t m_maxEntries; //!< "MaxEntries"
    uint64_t m_seed;       //!< "HashSeed"

    std::vector<Record> m_records;                  //!< the slab
    uint32_t m_freeHead{NONE};                      //!< free list (through Record::next)
    std::vector<uint32_t> m_byOriginal;             //!< original key -> record (NONE = empty)
    std::vector<uint32_t> m_byReply;                //!< reply key -> record
    std::array<List, AdcTimeoutClass::COUNT> m_lru; //!< per class, oldest first
    std::vector<uint32_t> m_serverCount;            //!< live entries per server
    uint32_t m_size{0};                             //!< live entries
    std::vector<Vip> m_vips;                        //!< VIP endpoints by id
    std::vector<Server> m_servers;                  //!< server endpoints by id
    std::vector<uint32_t> m_natAddresses;           //!< translated source addresses by id
    std::map<uint64_t, uint16_t> m_vipIds;          //!< address << 8 | protocol -> id
    std::map<uint64_t, uint16_t> m_serverIds;       //!< address << 32 | server -> id
    std::map<uint64_t, uint16_t> m_natAddressIds;   //!< address -> id
    RemoveCallback m_removeCallback;                //!< owner's hook

    uint64_t m_created{0};    //!< counter
    uint64_t m_expired{0};    //!< counter
    uint64_t m_removed{0};    //!< counter
    uint64_t m_overflows{0};  //!< counter
    uint64_t m_collisions{0}; //!< counter
};

} // namespace ns3

#endif /* ILB_NAT_TABLE_H */
