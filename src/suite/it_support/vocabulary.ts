import type { Category } from "./policy.js";

/** Realistic ticket subjects per category (picked by the seeded generator). */
export const SUBJECTS: Record<Category, readonly string[]> = {
  network: [
    "VPN drops every few minutes",
    "Branch office cannot reach file server",
    "Wi-Fi in meeting rooms keeps disconnecting",
    "Slow internet at head office",
    "Site-to-site tunnel down",
    "DNS resolution failing for internal hosts",
    "Switch port flapping on 2nd floor",
    "Guest network not issuing IP addresses",
  ],
  hardware: [
    "Laptop battery not charging",
    "Desktop will not power on",
    "Printer jams on every job",
    "Docking station not detecting monitors",
    "Laptop keyboard keys unresponsive",
    "Blue screen after waking from sleep",
    "Server fan alarm",
    "Desk phone has no dial tone",
    "Overheating and random shutdowns",
    "Cracked laptop screen",
  ],
  software: [
    "ERP client crashes on login",
    "Accounting package licence expired",
    "Browser extension blocked by policy",
    "Cannot install design software update",
    "CRM reports time out",
    "Office apps ask to reactivate",
    "Line-of-business app shows certificate error",
    "Payroll export fails with error 500",
  ],
  access: [
    "Password reset for locked account",
    "New starter needs accounts",
    "MFA device lost",
    "Access to finance share requested",
    "Leaver account must be disabled",
    "Cannot log in to HR portal",
    "Shared mailbox permissions",
    "Admin rights request for developer",
  ],
  email: [
    "Outgoing mail stuck in outbox",
    "Calendar invites not arriving",
    "Mailbox full warning",
    "Emails to partner domain bouncing",
    "Distribution list update",
    "Out-of-office not working",
  ],
  security: [
    "Suspicious phishing email reported",
    "Antivirus flagged a file on laptop",
    "Unusual sign-in from abroad",
    "Possible ransomware note on shared drive",
    "USB storage blocked, exemption requested",
    "Firewall rule change request",
  ],
  database: [
    "Nightly backup job failed",
    "Reporting database very slow",
    "Replication lag on SQL cluster",
    "Database restore requested",
    "Disk space low on DB server",
    "Deadlocks in order database",
  ],
};

export const COMMENTS: readonly string[] = [
  "Called the user, collecting logs.",
  "Remote session booked for tomorrow morning.",
  "Applied the standard fix, monitoring.",
  "Asked the customer for a screenshot of the error.",
  "Vendor case opened, awaiting their engineer.",
  "Reproduced the issue in the lab.",
  "Workaround shared with the user.",
  "Driver updated, user to confirm.",
  "Checked the change log, no related change found.",
  "Escalation contact informed by phone.",
];

export const RESOLUTION_NOTES: readonly string[] = [
  "Root cause fixed and confirmed with the user.",
  "Replaced faulty component.",
  "Configuration corrected.",
  "User confirmed the workaround is acceptable.",
];

export const INDUSTRIES: readonly string[] = [
  "Legal",
  "Accounting",
  "Healthcare",
  "Manufacturing",
  "Retail",
  "Logistics",
  "Architecture",
  "Education",
  "Real estate",
  "Hospitality",
  "Insurance",
  "Engineering",
];

export const JOB_TITLES: readonly string[] = [
  "Office Manager",
  "Finance Director",
  "Operations Lead",
  "Practice Manager",
  "IT Coordinator",
  "Managing Partner",
  "HR Manager",
  "Receptionist",
  "Sales Manager",
  "Project Engineer",
];

export const ASSET_MODELS: Record<string, readonly string[]> = {
  laptop: ["Dell Latitude 5440", "Lenovo ThinkPad T14", "HP EliteBook 840", "Apple MacBook Pro 14"],
  desktop: ["Dell OptiPlex 7010", "HP ProDesk 600", "Lenovo ThinkCentre M90"],
  server: ["Dell PowerEdge R650", "HPE ProLiant DL380", "Lenovo ThinkSystem SR630"],
  printer: ["HP LaserJet M507", "Brother HL-L6400", "Canon imageRUNNER C3226"],
  switch: ["Cisco Catalyst 9200", "Aruba 2930F", "Ubiquiti USW-Pro-24"],
  firewall: ["Fortinet FortiGate 60F", "Palo Alto PA-440", "Sophos XGS 2100"],
  phone: ["Yealink T54W", "Poly VVX 450", "Cisco IP Phone 8845"],
};

export const ROOT_CAUSES: Record<Category, string> = {
  network: "An expired certificate on the edge firewall caused tunnel renegotiation to fail.",
  hardware: "A batch of faulty power adapters was identified by the manufacturer.",
  software: "An unannounced vendor update changed the authentication endpoint.",
  access: "A directory synchronisation job failed after a schema change.",
  email: "The outbound relay exceeded its sending quota after a misconfigured mail merge.",
  security: "A phishing campaign harvested one user's credentials; MFA blocked the sign-in.",
  database: "Transaction log growth filled the data volume after a failed backup truncation.",
};
