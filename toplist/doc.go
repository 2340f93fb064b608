// Package toplist selects the lists people look for from a rating list: the
// top players open, women, juniors, girls, seniors and by age category, of a
// federation or a club, active players only, and counts each federation's
// and club's players. It is a pure library (no I/O): `ratelist top` and the
// report's top-list pages both call it, so they show the same players.
//
// The steps:
//
//  1. The caller turns a rating list and the player registry into Players in
//     list order, each marked Active (Active: no inactive flag and a rated
//     game in the last Settings.ActiveMonths).
//  2. Settings.Lists names the lists; Select takes the first n of one list,
//     ages counted on 1 January of the list's year (Period).
//  3. Groups counts a federation's or a club's players, rated and active
//     players, the average of its ten best and its titles.
package toplist
