"""The table on the LAN: DNS-SD advertising and browsing over mDNS, the interfaces it uses,
whether an advertised address still answers, and finding a moved table again by name."""
